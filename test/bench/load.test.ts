import { describe, expect, it } from 'vitest';
// @ts-expect-error: the load script is plain JavaScript with no types of its own
import { runFleet, runLoad, statuses } from '../../bench/load.mjs';

type Phase = {
  name: string;
  result: { errors: number; timeouts: number; statusCodeStats: Record<string, { count: string }> };
  before: number;
  after: number;
};
type FleetPhase = {
  name: string;
  rps: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
  states: number;
  rendersPerState: number;
  storeFaults: number;
};
type Report = {
  phases: Phase[];
  retryAfter: string | null;
  recovery: { status: number; ms: number }[];
  flood: { sent: number; crawler: { status: number; ms: number }[] };
  start: number;
  end: number;
};

// The short form of `npm run load`: two seconds a phase, the same invariants as the long run.
describe('the snapshot server under load', () => {
  it('answers mixed traffic without a 5xx or a hung request, sheds excess with 503 + Retry-After, and recovers', async () => {
    const report = (await runLoad({ seconds: 2, connections: [50, 200] })) as Report;
    const [mixed50, mixed200, overload] = report.phases as [Phase, Phase, Phase];
    for (const phase of [mixed50, mixed200]) {
      const counts = statuses(phase.result) as Record<string, number>;
      expect(Object.keys(counts).sort()).toEqual(['200', '400', '404']);
      expect(phase.result.errors + phase.result.timeouts).toBe(0);
    }
    const shed = statuses(overload.result) as Record<string, number>;
    expect(shed['503']).toBeGreaterThan(0);
    expect(Object.keys(shed).filter((code) => code !== '200' && code !== '503')).toEqual([]);
    expect(overload.result.errors + overload.result.timeouts).toBe(0);
    expect(report.retryAfter).toBe('2');
    expect(report.recovery.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // The abandoned-request flood (security, second round): a crawler's requests are still served.
    expect(report.flood.sent).toBeGreaterThanOrEqual(110);
    expect(report.flood.crawler.length).toBeGreaterThan(0);
    expect(report.flood.crawler.every((r) => r.status === 200)).toBe(true);
    // The cache is bounded at 2,000 snapshots or 8 MB: the server stays far below this.
    expect(report.end).toBeLessThan(400);
  });

  it('renders each state once across two processes sharing Redis, where two with their own memory render some twice', async () => {
    const [one, two, shared] = (await runFleet({ seconds: 1.5 })) as [FleetPhase, FleetPhase, FleetPhase];
    for (const phase of [one, two, shared]) {
      expect(Object.keys(phase.statuses).sort()).toEqual(['200', '400', '404']);
      expect(phase.errors).toBe(0);
      expect(phase.states).toBeGreaterThan(20);
    }
    expect(two.rendersPerState).toBeGreaterThan(1);
    // A Redis command past its timeout (a machine busy with the whole test run) is an outage: the
    // processes render on their own meanwhile, as they must, and onError hears of it.
    if (shared.storeFaults === 0) expect(shared.rendersPerState).toBe(1);
    else expect(shared.rendersPerState).toBeLessThan(two.rendersPerState);
  });
});
