// npm run contracts:deploy -- --chain base --rpc-url https://… (deployer key in DEPLOYER_PRIVATE_KEY)
// Deploys SubscriptionManager and the escrow at their CREATE2 addresses on a real chain, or verifies
// them, and prints the CHAIN_LIVE_* lines (src/chain/deployment/deploy-command.ts).
import { runContractsDeploy } from '../src/chain/deployment/deploy-command.js';
import { loadContractBuild } from '../tools/dev/chain/contract-build.js';

process.exitCode = await runContractsDeploy(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  loadBuild: loadContractBuild,
});
