// What `npm start` leaves running when it is killed outright (SIGKILL, a closed
// terminal): the servers it started keep their ports, their data folders and
// their locks, and would break the next start. Each long-running process it
// starts is recorded in .data/processes.json; the next start stops whichever of
// them still run (checking each pid still runs the recorded command, since
// pids are reused) before it starts its own.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export type RecordedProcess = { name: string; pid: number; /** A part of its command line that identifies it. */ marker: string };

function readRecords(file: string): RecordedProcess[] {
  if (!existsSync(file)) return [];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(parsed) ? (parsed as RecordedProcess[]) : [];
  } catch {
    return []; // a file cut short by the kill: nothing to trust in it
  }
}

function commandLine(pid: number): string | undefined {
  try {
    if (existsSync(`/proc/${pid}/cmdline`)) return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` still runs the process that was recorded under it. */
export function stillRunning(record: RecordedProcess): boolean {
  return commandLine(record.pid)?.includes(record.marker) ?? false;
}

/**
 * Replaces the file whole (a write to a temporary file, then a rename): a reader never sees it half written, which it
 * would take for an empty list (CI's start smoke once read it between a truncate and the write).
 */
function writeRecords(file: string, records: RecordedProcess[]): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(records, null, 2) + '\n');
  renameSync(partial, file);
}

export function recordProcess(file: string, record: RecordedProcess): void {
  const records = readRecords(file).filter((r) => r.name !== record.name);
  writeRecords(file, [...records, record]);
}

/** The recorded processes that still run. */
export function runningRecords(file: string): RecordedProcess[] {
  return readRecords(file).filter(stillRunning);
}

async function waitGone(record: RecordedProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (stillRunning(record)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/** Stops (SIGTERM, then SIGKILL) every recorded process that still runs, except `keep`, and forgets them. */
export async function stopLeftovers(
  file: string,
  log: (line: string) => void,
  keep: (r: RecordedProcess) => boolean = () => false,
): Promise<void> {
  for (const record of runningRecords(file)) {
    if (keep(record)) continue;
    log(`stopping ${record.name} (pid ${record.pid}) left running by an earlier start`);
    try {
      process.kill(record.pid, 'SIGTERM');
    } catch {
      continue; // gone in the meantime
    }
    if (!(await waitGone(record, 15_000))) {
      process.kill(record.pid, 'SIGKILL');
      await waitGone(record, 5_000);
    }
  }
  writeRecords(file, []);
}
