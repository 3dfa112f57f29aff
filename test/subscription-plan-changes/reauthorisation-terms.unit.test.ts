// Where a replacement enrolment for an upgrade above the cap starts (issue 40, item 1): the subscription's next period,
// an hour's margin before its start, the periods left of the term.
import { describe, expect, it } from 'vitest';
import { replacementStart } from '../../src/subscription-plan-changes/reauthorisation-terms.js';
import type { Schedule } from '../../src/subscriptions/periods.js';

const schedule: Schedule = { anchor: new Date('2027-01-31T12:00:00Z'), interval: 'monthly', intervalCount: 1 };
const at = (iso: string) => new Date(iso);

describe('replacementStart', () => {
  it('is the period after the one in progress, at its calendar start (end-of-month clamped)', () => {
    expect(replacementStart({ schedule, periods: 0, currentPeriodIndex: 0, now: at('2027-02-10T00:00:00Z') })).toEqual({
      periodIndex: 1,
      start: at('2027-02-28T12:00:00Z'),
      periods: 0,
    });
    expect(replacementStart({ schedule, periods: 12, currentPeriodIndex: 1, now: at('2027-03-05T00:00:00Z') })).toEqual({
      periodIndex: 2,
      start: at('2027-03-31T12:00:00Z'),
      periods: 10,
    });
  });

  it('in a trial is period 0, at the trial end', () => {
    expect(replacementStart({ schedule, periods: 3, currentPeriodIndex: null, now: at('2027-01-20T00:00:00Z') })).toEqual({
      periodIndex: 0,
      start: schedule.anchor,
      periods: 3,
    });
  });

  it('skips a start less than an hour away (an enrolment mined after it would start elsewhere), and not one an hour away', () => {
    expect(replacementStart({ schedule, periods: 0, currentPeriodIndex: 0, now: at('2027-02-28T11:00:01Z') })?.periodIndex).toBe(2);
    expect(replacementStart({ schedule, periods: 0, currentPeriodIndex: 0, now: at('2027-02-28T11:00:00Z') })?.periodIndex).toBe(1);
  });

  it('is null when the term has no period left', () => {
    expect(replacementStart({ schedule, periods: 2, currentPeriodIndex: 1, now: at('2027-03-05T00:00:00Z') })).toBeNull();
  });
});
