import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApi, singleTenant } from '@agentstep/api';
import { inMemoryApiDeps } from '@agentstep/api/testing';
import {
  CONSOLE_CONFIG_FILE,
  type ConsoleConfig,
  consoleContentSecurityPolicy,
} from '@agentstep/console/config';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { MockIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentStep } from './agent-step.js';
import type { AgentStepApiOptions } from './agent-step-api.js';
import { AgentStepConsole, API_PATH_PREFIXES } from './agent-step-console.js';
import { AgentStepStack } from './agent-step-stack.js';
import { logicalId, testApp } from './testing/synth-agent.js';

const jwt = { issuer: 'https://issuer.example.com/pool', audience: 'agentstep-api' };

/** The folders synthesis writes, removed when the file's tests end. */
const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder for one synthesis. */
function outdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentstep-console-'));
  outdirs.push(dir);
  return dir;
}

/** An agent whose API serves the console (bundling skipped), its template and the assembly's folder. */
function synthConsole(api: AgentStepApiOptions = { auth: { jwt }, console: true }) {
  const app = testApp({ outdir: outdir() });
  const stack = new Stack(app, 'Console');
  const agent = new AgentStep(stack, 'Agent', { api });
  const template = Template.fromStack(stack);
  const assembly = app.synth();
  const webConsole = agent.console as AgentStepConsole;
  const distribution =
    template.toJSON().Resources[logicalId(webConsole.distribution)].Properties.DistributionConfig;
  return { agent, stack, template, directory: assembly.directory, webConsole, distribution };
}

/** The staged asset folders of an assembly holding `file`. */
function assetsHolding(directory: string, file: string): string[] {
  return readdirSync(directory)
    .filter((name) => name.startsWith('asset.') && existsSync(join(directory, name, file)))
    .map((name) => join(directory, name));
}

/** Whether a path matches a CloudFront path pattern (`*`: any characters, `?`: one). */
function matchesPathPattern(pattern: string, path: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(path);
}

type CacheBehavior = {
  PathPattern: string;
  TargetOriginId: string;
  [key: string]: unknown;
};
type Origin = { Id: string; [key: string]: unknown };

/** The distribution's behaviors to the API: those whose origin is a custom (non-S3) one. */
function apiBehaviors(distribution: { CacheBehaviors: CacheBehavior[]; Origins: Origin[] }) {
  const apiOrigins = distribution.Origins.filter((origin) => origin.CustomOriginConfig).map(
    (origin) => origin.Id,
  );
  return distribution.CacheBehaviors.filter((behavior) => apiOrigins.includes(behavior.TargetOriginId));
}

const expectedConfig: ConsoleConfig = {
  signIn: {
    kind: 'oidc',
    issuer: jwt.issuer,
    clientId: jwt.audience,
    audience: jwt.audience,
    scopes: ['openid'],
  },
};

describe('AgentStepConsole (synthesized)', () => {
  const synthesized = synthConsole();

  it('keeps the files in a private bucket that only the distribution reads, through origin access control', () => {
    const { template, webConsole, distribution } = synthesized;
    const bucket = template.toJSON().Resources[logicalId(webConsole.bucket)].Properties;
    expect(bucket).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
    });
    const [policy] = Object.values(template.findResources('AWS::S3::BucketPolicy')).filter(
      ({ Properties }) => Properties.Bucket.Ref === logicalId(webConsole.bucket),
    );
    const statements = policy?.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>;
    // TLS only; then one grant: GetObject for CloudFront, on behalf of this distribution alone.
    expect(statements.filter((statement) => statement.Effect === 'Allow')).toEqual([
      expect.objectContaining({
        Action: 's3:GetObject',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
      }),
    ]);
    const sourceArn = JSON.stringify(statements.find((statement) => statement.Effect === 'Allow')?.Condition);
    expect(sourceArn).toContain(`:distribution/",{"Ref":"${logicalId(webConsole.distribution)}"}`);
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const s3Origin = (distribution.Origins as Origin[]).find((origin) => origin.S3OriginConfig);
    expect(s3Origin).toMatchObject({
      OriginAccessControlId: expect.anything(),
      S3OriginConfig: { OriginAccessIdentity: '' },
    });
    template.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
  });

  it('serves index.html at the root over HTTPS, with the console’s CSP and the usual security headers', () => {
    const { template, distribution } = synthesized;
    expect(distribution.DefaultRootObject).toBe('index.html');
    expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    const [headers] = Object.keys(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(distribution.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: headers });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: {
          ContentSecurityPolicy: {
            ContentSecurityPolicy: consoleContentSecurityPolicy(expectedConfig),
            Override: true,
          },
          StrictTransportSecurity: {
            AccessControlMaxAgeSec: 365 * 24 * 3600,
            IncludeSubdomains: true,
            Override: true,
          },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
        },
      },
    });
  });

  it('sends each API prefix to the API’s stage over HTTPS, any method, uncached, with every viewer header but Host', () => {
    const { agent, distribution } = synthesized;
    const behaviors = apiBehaviors(distribution);
    expect(behaviors.map((behavior) => behavior.PathPattern)).toEqual(
      API_PATH_PREFIXES.map((prefix) => `/${prefix}*`),
    );
    for (const behavior of behaviors) {
      expect(behavior).toMatchObject({
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
        // All viewer headers but Host: Authorization (allowed with caching disabled), Last-Event-ID
        // and Idempotency-Key reach the API.
        OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
        ViewerProtocolPolicy: 'https-only',
        Compress: false,
      });
    }
    const [apiOrigin] = (distribution.Origins as Origin[]).filter((origin) => origin.CustomOriginConfig);
    expect(apiOrigin?.CustomOriginConfig).toEqual({
      OriginProtocolPolicy: 'https-only',
      // An idle stream's heartbeat comes every 15 s: a minute between bytes, CloudFront's default limit.
      OriginReadTimeout: 60,
      OriginSSLProtocols: ['TLSv1.2'],
    });
    expect(JSON.stringify(apiOrigin?.DomainName)).toContain(`{"Ref":"${logicalId(agent.api)}"}`);
    expect(JSON.stringify(apiOrigin?.OriginPath)).toContain('DeploymentStage');
  });

  it('matches every route of the API with an API behavior, and none of the console’s files', () => {
    const patterns = apiBehaviors(synthesized.distribution).map((behavior) => behavior.PathPattern);
    // Middleware (`app.use`) is listed as ALL /*: every route it runs for is listed on its own.
    const routes = createApi(inMemoryApiDeps(singleTenant())).routes.filter(
      (route) => route.method !== 'ALL',
    );
    expect(routes.length).toBeGreaterThan(10);
    const unmatched = routes.filter(
      (route) => !patterns.some((pattern) => matchesPathPattern(pattern, route.path)),
    );
    expect(unmatched).toEqual([]);
    for (const file of [
      '/',
      '/index.html',
      '/assets/console.js',
      '/assets/console.css',
      `/${CONSOLE_CONFIG_FILE}`,
    ])
      expect(patterns.filter((pattern) => matchesPathPattern(pattern, file))).toEqual([]);
  });

  it('deploys the console and a config.json signing in with the API’s issuer, then invalidates the distribution', () => {
    const { template, webConsole, directory } = synthesized;
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: logicalId(webConsole.bucket) },
      DistributionId: { Ref: logicalId(webConsole.distribution) },
      Prune: true,
    });
    const [config, ...others] = assetsHolding(directory, CONSOLE_CONFIG_FILE);
    expect(others).toEqual([]);
    expect(JSON.parse(readFileSync(join(config ?? '', CONSOLE_CONFIG_FILE), 'utf8'))).toEqual(expectedConfig);
  });

  it('takes the console’s own client id and scopes', () => {
    const { directory } = synthConsole({
      auth: { jwt },
      console: { clientId: 'console-client', scopes: ['openid', 'email'] },
    });
    const [config] = assetsHolding(directory, CONSOLE_CONFIG_FILE);
    expect(JSON.parse(readFileSync(join(config ?? '', CONSOLE_CONFIG_FILE), 'utf8'))).toEqual({
      signIn: { ...expectedConfig.signIn, clientId: 'console-client', scopes: ['openid', 'email'] },
    });
  });

  it('exposes its https URL, which AgentStepStack outputs as ConsoleUrl; no console, no output', () => {
    const { webConsole, stack } = synthesized;
    expect(stack.resolve(webConsole.url)).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.any(String), 'DomainName'] }, '/']],
    });
    const withConsole = new AgentStepStack(testApp(), 'WithConsole', {
      agent: { api: { auth: { jwt }, console: true } },
    });
    const output = Template.fromStack(withConsole).toJSON().Outputs.ConsoleUrl;
    expect(output.Description).toContain('redirect URI');
    expect(output.Value).toEqual(withConsole.resolve(withConsole.agent.console?.url));
    const without = new AgentStepStack(testApp(), 'WithoutConsole', {
      agent: { api: { auth: { jwt } } },
    });
    expect(Template.fromStack(without).toJSON().Outputs.ConsoleUrl).toBeUndefined();
    expect(without.agent.console).toBeUndefined();
  });

  it.each([
    ['IAM authorization by default', { console: true }],
    ['explicit IAM authorization', { auth: { iam: true }, console: {} }],
  ] as const)('refuses the console with %s: it signs in with OIDC', (_, api) => {
    expect(() => synthConsole(api)).toThrow(/console signs in with OpenID Connect.*api\.auth\.jwt/);
  });

  it('fails synthesis on settings the console’s schema refuses, naming them', () => {
    expect(() =>
      synthConsole({ auth: { jwt: { ...jwt, issuer: 'issuer.example.com' } }, console: true }),
    ).toThrow(/AgentStep setting console sign-in is not valid: signIn\.issuer/);
    expect(() => synthConsole({ auth: { jwt }, console: { clientId: '' } })).toThrow(/signIn\.clientId/);
  });
});

describe('AgentStepConsole (bundled)', () => {
  it('builds the console into its asset: index.html, assets/console.js and assets/console.css', () => {
    const directory = outdir();
    // Bundling is under test here; CDK's built-in template validation is not.
    const app = new App({ outdir: directory, builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'Bundled');
    const api = new RestApi(stack, 'Api');
    api.root.addMethod('ANY', new MockIntegration());
    new AgentStepConsole(stack, 'Console', {
      api,
      oidc: { ...jwt, clientId: 'console-client', scopes: ['openid'] },
    });
    app.synth();
    const [files, ...others] = assetsHolding(directory, 'index.html');
    expect(others).toEqual([]);
    expect(readFileSync(join(files ?? '', 'index.html'), 'utf8')).toContain('assets/console.js');
    expect(readFileSync(join(files ?? '', 'assets', 'console.js'), 'utf8').length).toBeGreaterThan(1000);
    expect(existsSync(join(files ?? '', 'assets', 'console.css'))).toBe(true);
  });
});
