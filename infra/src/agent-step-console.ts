import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import {
  CONSOLE_CONFIG_FILE,
  consoleConfigSchema,
  consoleContentSecurityPolicy,
} from '@agentstep/console/config';
import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { RestApiOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { checked } from './checked.js';
import { functionRole } from './function-role.js';
import { privateBucket } from './private-bucket.js';

/**
 * The first segment of every path the AgentStep API answers: CloudFront sends `/<prefix>*` to the
 * API and everything else to the console's files. A test checks every route of `createApi` is
 * matched, so a route under a new prefix cannot silently miss CloudFront.
 */
export const API_PATH_PREFIXES = [
  'sessions',
  'workflows',
  'tools',
  'chat',
  'ag-ui',
  'mcp',
  'a2a',
  '.well-known/agent-card.json',
] as const;

/** How the console signs in: the API's OIDC issuer, the `aud` it requires, the console's client there. */
export interface ConsoleOidcSettings {
  /**
   * The issuer the API's JWT authorizer trusts, exactly the tokens' `iss`. A literal URL, not a
   * token: it is checked at synthesis and written into config.json and the CSP.
   */
  readonly issuer: string;
  /** The `aud` the API's JWT authorizer requires. */
  readonly audience: string;
  /** The console's (public, PKCE) client at the issuer. */
  readonly clientId: string;
  /** The scopes the console asks for; `openid` among them. */
  readonly scopes: readonly string[];
}

/** Props of {@link AgentStepConsole}. */
export interface AgentStepConsoleProps {
  /** The API the console talks to, served from the same CloudFront origin. */
  readonly api: RestApi;
  /** How the console signs in: written into its config.json and its Content-Security-Policy. */
  readonly oidc: ConsoleOidcSettings;
  /**
   * What happens to its buckets (files and logs) when the stack is deleted or a deploy would replace
   * them; `DESTROY` empties them first. @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** The installed console package's folder, whose `build-console.js` writes its static files. */
const CONSOLE_PACKAGE = dirname(createRequire(import.meta.url).resolve('@agentstep/console'));

/**
 * How long CloudFront waits for the API's next bytes. An idle event stream sends a heartbeat every
 * 15 s (the API's stream route); 60 s leaves room for a late one and needs no quota increase.
 */
const API_READ_TIMEOUT = Duration.seconds(60);

/** How long the logs of the console's requests and of its bucket are kept: as long as the API's access logs. */
const LOG_EXPIRATION = Duration.days(365);

/**
 * The web console deployed: its files in a private S3 bucket read by CloudFront through origin
 * access control, and the API behind the same distribution under {@link API_PATH_PREFIXES}, so
 * the console calls its own origin with no CORS. Its `config.json` signs in with the API's OIDC
 * issuer; its CSP is the console's own.
 */
export class AgentStepConsole extends Construct {
  /** The console's files (index.html, assets/, config.json); only the distribution reads them. */
  readonly bucket: IBucket;
  /** Serves the files at `/` and sends {@link API_PATH_PREFIXES} to the API; logs to its own bucket. */
  readonly distribution: Distribution;
  /** Copies the built console and its config.json to the bucket, then invalidates the distribution. */
  readonly deployment: BucketDeployment;
  /** The console's address, `https://<distribution domain>/`: the OIDC client's redirect URI. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: AgentStepConsoleProps) {
    super(scope, id);
    const config = checked(
      consoleConfigSchema,
      { signIn: { kind: 'oidc', ...props.oidc } },
      'console sign-in',
      'setting',
    );
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    // Both buckets `as IBucket`: Bucket's isWebsite getter (boolean | undefined) misses IBucket's
    // optional isWebsite under exactOptionalPropertyTypes, a gap in aws-cdk-lib's typings only.
    const logs = privateBucket(this, 'Logs', {
      removalPolicy,
      // CloudFront's standard logs are written with ACLs.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: LOG_EXPIRATION }],
    }) as IBucket;
    this.bucket = privateBucket(this, 'Files', {
      removalPolicy,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'files/',
    }) as IBucket;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'AgentStep console and API',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: this.#responseHeaders(consoleContentSecurityPolicy(config)),
      },
      additionalBehaviors: this.#apiBehaviors(props.api),
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'distribution/',
    });
    this.url = `https://${this.distribution.distributionDomainName}/`;
    this.deployment = new BucketDeployment(this, 'Deployment', {
      sources: [consoleFiles(), Source.jsonData(CONSOLE_CONFIG_FILE, config)],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      // The files keep their names from one build to the next: browsers revalidate (ETag) each time.
      cacheControl: [CacheControl.noCache()],
      // Its own role and log group, no managed policy.
      ...functionRole(this, { role: 'DeploymentRole', logs: 'DeploymentLogs' }),
    });
  }

  /** The console's headers: its CSP, HSTS, no MIME sniffing, no framing, no referrer. */
  #responseHeaders(contentSecurityPolicy: string): ResponseHeadersPolicy {
    return new ResponseHeadersPolicy(this, 'Headers', {
      comment: 'AgentStep console: its Content-Security-Policy and the usual security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
    });
  }

  /**
   * One behavior per API prefix, to the API's stage: any method, nothing cached, every viewer
   * header but Host (Authorization, Last-Event-ID, Idempotency-Key) passed on, HTTPS only.
   */
  #apiBehaviors(api: RestApi): Record<string, BehaviorOptions> {
    const behavior: BehaviorOptions = {
      origin: new RestApiOrigin(api, { readTimeout: API_READ_TIMEOUT }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // An event stream's frames go out as they come, never held back for a compression buffer.
      compress: false,
      // With caching disabled, an all-viewer policy may forward Authorization; Host must stay the API's.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    return Object.fromEntries(API_PATH_PREFIXES.map((prefix) => [`/${prefix}*`, behavior]));
  }
}

/**
 * The console built by its package's `build-console.js` (index.html, assets/console.js and
 * assets/console.css), hashed by that output so a change in any package it bundles redeploys it.
 */
function consoleFiles() {
  const command = (outputDir: string) => ['build-console.js', outputDir];
  return Source.asset(CONSOLE_PACKAGE, {
    assetHashType: AssetHashType.OUTPUT,
    exclude: ['node_modules', 'dist', 'bench'],
    bundling: {
      local: {
        tryBundle(outputDir) {
          execFileSync(process.execPath, command(outputDir), { cwd: CONSOLE_PACKAGE, stdio: 'inherit' });
          return true;
        },
      },
      // CDK requires an image; the local build above always runs (this app runs on Node) or throws.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
      command: ['node', ...command('/asset-output')],
    },
  });
}
