// Constants shared with the API's own source (imported at build time; no
// server code reaches the browser): scopes and presets, event kinds, versions,
// the dependency-free money formatter, and the token's EIP-712 message types.
export { SCOPES, SCOPE_PRESETS } from '../../src/api-keys/scopes.js';
export { EVENT_TYPES } from '../../src/events/types.js';
export { CURRENT_API_VERSION, SUPPORTED_API_VERSIONS } from '../../src/http/versions.js';
export { findChainPreset } from '../../src/chain/presets.js';
export { formatAmount as formatBaseUnits } from '../../src/money/format.js';
export { expiryCountdown } from '../../src/time/duration-text.js';
export { describeMoneyInput, parseMoneyInput } from '../../src/money/parse.js';
export { EIP3009_TYPES, EIP712_DOMAIN_TYPE, PERMIT_TYPES } from '../../src/chain/token-typed-data.js';
