// Why an object failed, as the API names it: the readable `failureReason` and, beside it, the
// `failureCode` (a token refusal code such as `token_paused` or `payer_blacklisted`, docs/events.md).
export function FailureNote({ code, reason }: { code?: string | null; reason?: string | null }) {
  if (!code && !reason) return null;
  return (
    <span className="failure" data-failure-code={code ?? undefined}>
      {reason ?? code}
      {code && reason && (
        <>
          {' '}
          <code className="hint">{code}</code>
        </>
      )}
    </span>
  );
}
