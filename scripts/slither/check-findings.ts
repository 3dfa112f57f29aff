/**
 * Compares slither's JSON report with the committed triage (contracts/slither-triage.json) and exits 1
 * when a finding is not triaged. A triage entry names the detector, the contract, optionally the
 * functions (none: the whole contract), and why the finding is accepted; an entry no finding matches
 * is reported as stale (a warning: the code it excused changed) so the file stays honest.
 *   node --import tsx scripts/slither/check-findings.ts <slither-report.json> <triage.json>
 */
import { readFileSync } from 'node:fs';

type TriageEntry = { detector: string; contract: string; functions?: string[]; reason: string };

type SlitherElement = {
  type: string;
  name: string;
  source_mapping?: { filename_relative?: string; lines?: number[] };
  type_specific_fields?: { parent?: SlitherElement };
};

type SlitherFinding = { check: string; impact: string; confidence: string; description: string; elements: SlitherElement[] };

type SlitherReport = { success: boolean; error: string | null; results?: { detectors?: SlitherFinding[] } };

/** Where a finding is: the contract and (when inside one) the function of its first element. */
export function locate(finding: SlitherFinding): { contract?: string; fn?: string } {
  let element: SlitherElement | undefined = finding.elements[0];
  let fn: string | undefined;
  while (element) {
    if (element.type === 'function' && fn === undefined) fn = element.name;
    if (element.type === 'contract') return { contract: element.name, ...(fn !== undefined ? { fn } : {}) };
    element = element.type_specific_fields?.parent;
  }
  return fn !== undefined ? { fn } : {};
}

function readTriage(path: string): TriageEntry[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { findings?: TriageEntry[] };
  const entries = parsed.findings ?? [];
  entries.forEach((entry, i) => {
    if (!entry.detector || !entry.contract || !entry.reason?.trim()) {
      throw new Error(`${path}: findings[${i}] needs a detector, a contract and a reason`);
    }
  });
  return entries;
}

const matches = (entry: TriageEntry, finding: SlitherFinding, where: { contract?: string; fn?: string }) =>
  entry.detector === finding.check &&
  entry.contract === where.contract &&
  (entry.functions === undefined || (where.fn !== undefined && entry.functions.includes(where.fn)));

const [reportPath, triagePath] = process.argv.slice(2);
if (!reportPath || !triagePath) {
  console.error('usage: check-findings.ts <slither-report.json> <triage.json>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as SlitherReport;
if (!report.success) {
  console.error(`slither failed: ${report.error ?? 'no error given'}`);
  process.exit(1);
}
const triage = readTriage(triagePath);
const used = new Set<TriageEntry>();
const untriaged: SlitherFinding[] = [];
for (const finding of report.results?.detectors ?? []) {
  const where = locate(finding);
  const entry = triage.find((e) => matches(e, finding, where));
  if (entry) used.add(entry);
  else untriaged.push(finding);
}
for (const entry of triage.filter((e) => !used.has(e))) {
  console.warn(
    `stale triage entry (no finding matches it): ${entry.detector} in ${entry.contract}${entry.functions ? `.${entry.functions.join('|')}` : ''}`,
  );
}
const total = report.results?.detectors?.length ?? 0;
if (untriaged.length > 0) {
  for (const finding of untriaged) {
    const where = locate(finding);
    console.error(
      `\nUNTRIAGED ${finding.check} (${finding.impact}, ${finding.confidence}) in ${where.contract ?? '?'}${where.fn ? `.${where.fn}` : ''}:\n${finding.description.trim()}`,
    );
  }
  console.error(
    `\n${untriaged.length} of ${total} slither finding(s) are not triaged in ${triagePath}: fix them, or add an entry with the reason they are accepted.`,
  );
  process.exit(1);
}
console.log(`slither: ${total} finding(s), all triaged in ${triagePath}`);
