// Deploys the dev contracts (Circle's USDC, SubscriptionManager, escrow) to the
// chain at CHAIN_TEST_RPC_URL and funds the dev payers: the `contracts`
// one-shot of docker-compose.yml. Idempotent: a chain that already has them at
// their deterministic addresses is only topped up. Test mode's default contract
// addresses are these, so the apps need no address settings.
//   CHAIN_TEST_RPC_URL=http://127.0.0.1:8545 node --import tsx scripts/deploy-dev-contracts.ts
import { startDevChain } from '../tools/dev/chain/dev-chain.js';

const rpcUrl = process.env.CHAIN_TEST_RPC_URL ?? process.env.CHAIN_RPC_URL;
if (!rpcUrl) {
  console.error('Set CHAIN_TEST_RPC_URL to the chain to deploy to.');
  process.exit(1);
}
const chain = await startDevChain({ rpcUrl, log: (line) => console.log(`[contracts] ${line}`) });
const { token, subscriptionManager, escrow, chainId, deployBlock } = chain.info;
console.log(JSON.stringify({ chainId, token, subscriptionManager, escrow, deployBlock }));
