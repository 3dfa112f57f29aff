// npm run replay [-- --query '<visibility query>'] [--per-type N]
// Before a deploy: downloads the histories of the workflows running on the Temporal server of
// TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE (the worker's settings) and replays them against this
// checkout's workflows/. Exits 1 if any run would hit a non-determinism error after the deploy.
import { parseArgs } from 'node:util';
import { connectTemporalClient } from '../src/temporal/connection.js';
import { WORKFLOWS_PATH } from '../src/temporal/worker.js';
import { DEFAULT_REPLAY_QUERY, DEFAULT_RUNS_PER_TYPE, replayRunningWorkflows } from '../tools/replay/replay-running.js';

const { values } = parseArgs({
  options: {
    query: { type: 'string', default: DEFAULT_REPLAY_QUERY },
    'per-type': { type: 'string', default: String(DEFAULT_RUNS_PER_TYPE) },
  },
});
const perType = Number(values['per-type']);
if (!Number.isInteger(perType) || perType < 1) {
  process.stderr.write('--per-type must be a positive integer\n');
  process.exit(2);
}
const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
const client = await connectTemporalClient(address, namespace);
const outcomes = await replayRunningWorkflows(client, { query: values.query, perType, replay: { workflowsPath: WORKFLOWS_PATH } });
await client.connection.close();
for (const outcome of outcomes) {
  const line = `${outcome.error ? 'FAIL' : 'ok  '} ${outcome.workflowType} ${outcome.workflowId} ${outcome.runId}`;
  process.stdout.write(outcome.error ? `${line}\n     ${outcome.error}\n` : `${line}\n`);
}
const failed = outcomes.filter((outcome) => outcome.error).length;
process.stdout.write(`${outcomes.length} runs replayed on ${address}/${namespace}, ${failed} failed (query: ${values.query})\n`);
process.exitCode = failed > 0 ? 1 : 0;
