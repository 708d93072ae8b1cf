/** Help for `create-agentstep`, printed by `--help`. */
export const USAGE = `create-agentstep DIR [--packages OUTDIR]
npm create agentstep@latest DIR

Creates an AgentStep project in DIR (a new or empty folder): agent.ts, your agent with one tool
(word_count); script.json, the steps its scripted model plays; agent.test.ts, its test (vitest);
bin/app.ts and cdk.json, a CDK app that deploys it. It only writes files: then cd DIR, npm install,
npm start (runs the agent locally), npm test, npx cdk deploy.
  --packages OUTDIR   depend on the @agentstep tarballs in OUTDIR (agentstep-*.tgz, as npm run pack
                      writes them) instead of the registry, by file: paths (for offline tests)
  --help              this help
Exit code 0: created; 2: called wrong (DIR missing, not empty, an unknown flag).`;
