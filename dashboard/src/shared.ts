// Constants shared with the API's own source (imported at build time; no
// server code reaches the browser): scopes and presets, event kinds, versions,
// and the dependency-free money formatter.
export { SCOPES, SCOPE_PRESETS } from '../../src/api-keys/scopes.js';
export { EVENT_TYPES } from '../../src/events/types.js';
export { CURRENT_API_VERSION, SUPPORTED_API_VERSIONS } from '../../src/http/versions.js';
export { findChainPreset } from '../../src/chain/presets.js';
export { formatAmount as formatBaseUnits } from '../../src/money/format.js';
