const TONES: Record<string, string> = {
  paid: 'good', ready: 'good', advancing: 'info', issued: 'good', revealed: 'info', archived: 'muted', succeeded: 'good', completed: 'good', active: 'good', approved: 'good', confirmed: 'good', funded: 'good',
  sent: 'info', sending: 'info', interrupted: 'warn', open: 'info', trialing: 'info', processing: 'info', submitted: 'info', pending: 'info', proposed: 'warn',
  overdue: 'warn', at_risk: 'warn', failed: 'warn', paused: 'muted', draft: 'muted', expired: 'muted', revoked: 'bad',
  void: 'bad', cancelled: 'bad', lapsed: 'bad', disabled: 'bad', permanently_failed: 'bad', rejected: 'bad', disputed: 'bad',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${TONES[status] ?? 'muted'}`}>{status.replace(/_/g, ' ')}</span>;
}
