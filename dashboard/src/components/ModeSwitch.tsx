// The test/live switch shown on every page. Live stays locked, with the
// API's reasons, until every live-mode check passes.
import { navigate } from '../router.ts';
import { useSession } from '../session.tsx';

export function ModeSwitch() {
  const { mode, setMode, eligibility } = useSession();
  const locked = !eligibility?.eligible;
  return (
    <div className="mode-switch">
      <fieldset className="segmented">
        <legend className="visually-hidden">Mode</legend>
        <label className={mode === 'test' ? 'on' : undefined}>
          <input type="radio" name="mode" value="test" checked={mode === 'test'} onChange={() => setMode('test')} />
          Test mode
        </label>
        <label className={`${mode === 'live' ? 'on' : ''} ${locked ? 'locked' : ''}`}>
          <input
            type="radio"
            name="mode"
            value="live"
            checked={mode === 'live'}
            disabled={locked}
            aria-describedby={locked ? 'live-locked' : undefined}
            onChange={() => setMode('live')}
          />
          Live mode
          {locked && (
            <svg className="lock" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
              <path d="M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 1 0-4 0v2z" fill="currentColor" />
            </svg>
          )}
        </label>
      </fieldset>
      {locked && eligibility && (
        <details className="locked-reasons" id="live-locked">
          <summary>
            Live mode locked: {eligibility.reasons.length} check{eligibility.reasons.length === 1 ? '' : 's'} left
          </summary>
          <ul>
            {eligibility.reasons.map((reason) => (
              <li key={reason.code}>{reason.message}</li>
            ))}
          </ul>
          <button type="button" className="link" onClick={() => navigate('go-live')}>
            Complete the checks
          </button>
        </details>
      )}
    </div>
  );
}
