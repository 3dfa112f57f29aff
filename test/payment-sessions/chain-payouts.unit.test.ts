// A payout address per chain (issue 39, item 4), pure logic: a session's addresses and the payout each binds.
import { describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { depositAddressOf } from '../../src/chain/deposits/deposit-address.js';
import { DEPOSIT_FACTORY_V2_ADDRESS } from '../../src/chain/deposits/deposit-contracts-v2.js';
import { depositAddressOn, depositAddressesOf, payToOn, payoutBoundTo } from '../../src/payment-sessions/repo.js';

const account = getAddress('0x1111111111111111111111111111111111111111');
const chainB = getAddress('0x2222222222222222222222222222222222222222');
const id = 'ps_01JTESTSESSION000000000000';
const onA = depositAddressOf(DEPOSIT_FACTORY_V2_ADDRESS, id, account, 2);
const onB = depositAddressOf(DEPOSIT_FACTORY_V2_ADDRESS, id, chainB, 2);
const session = {
  payTo: account,
  depositAddress: onA,
  chainId: '31337',
  token: '0x3333333333333333333333333333333333333333',
  acceptedChains: [
    { chainId: 31337, token: '0x3333333333333333333333333333333333333333', payTo: account, depositAddress: onA },
    { chainId: 31338, token: '0x3333333333333333333333333333333333333333', payTo: chainB, depositAddress: onB },
  ],
};

describe('a session on two chains with their own payouts', () => {
  it('has one deposit address per payout: the salt binds the payout', () => {
    expect(onA).not.toBe(onB);
    expect(depositAddressOn(session, 31337)).toBe(onA);
    expect(depositAddressOn(session, 31338)).toBe(onB);
    expect(payToOn(session, 31338)).toBe(chainB);
    expect(depositAddressesOf(session)).toEqual([
      { address: onA, payTo: account },
      { address: onB, payTo: chainB },
    ]);
  });

  it('sweeps a transfer to the payout its receiving address was made for, whatever the chain', () => {
    expect(payoutBoundTo(session, onB.toLowerCase())).toBe(chainB);
    expect(payoutBoundTo(session, onA)).toBe(account);
    expect(payoutBoundTo(session, '0x4444444444444444444444444444444444444444')).toBeUndefined();
  });

  it('reads a session created before (no per-chain payouts) as its one payTo and address on every chain', () => {
    const older = {
      ...session,
      acceptedChains: [
        { chainId: 31337, token: session.token },
        { chainId: 31338, token: session.token },
      ],
    };
    expect(payToOn(older, 31338)).toBe(account);
    expect(depositAddressOn(older, 31338)).toBe(onA);
    expect(depositAddressesOf(older)).toEqual([{ address: onA, payTo: account }]);
  });
});
