// src/chain/generated/ is exactly what its one generator renders now: every file byte for byte, and no
// other file (a stale ABI of a removed contract fails too). Proves the ABIs production code calls are
// the contracts/ build's and Circle's FiatTokenV2_2 artifact's, and the forwarder's init-code hash is
// the build's. When this fails, run `npm run contracts:generate`.
import { keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { FORWARDER_INIT_CODE_HASH } from '../../src/chain/generated/contracts.js';
import { loadArtifacts } from '../../tools/dev/chain/artifacts.js';
import { readGeneratedSources, renderGeneratedSources } from '../../tools/dev/chain/generated-sources.js';

describe('src/chain/generated', () => {
  it('matches a fresh generation byte for byte (run `npm run contracts:generate` when this fails)', async () => {
    const fresh = await renderGeneratedSources();
    const current = readGeneratedSources();
    expect(Object.keys(current).sort()).toEqual(Object.keys(fresh).sort());
    for (const [name, content] of Object.entries(fresh)) expect(current[name], name).toBe(content);
  }, 120_000);

  it('holds the init-code hash of the forwarder the build compiles', async () => {
    const build = await loadArtifacts();
    expect(keccak256(build.contracts.DepositForwarder!.bytecode)).toBe(FORWARDER_INIT_CODE_HASH);
  }, 120_000);
});
