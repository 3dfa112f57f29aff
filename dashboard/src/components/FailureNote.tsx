// Why an object failed, as the API names it: the `failureCode` (a token refusal code such as
// `token_paused` or `payer_blacklisted`, docs/events.md), then the readable `failureReason`.
// One format everywhere: lists, timelines and a payment's transactions.
export function FailureNote({ code, reason }: { code?: string | null; reason?: string | null }) {
  if (!code && !reason) return null;
  return (
    <span className="failure" data-failure-code={code ?? undefined}>
      {code && <code>{code}</code>}
      {code && reason && ': '}
      {reason}
    </span>
  );
}
