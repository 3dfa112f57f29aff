// Dated API versions. Breaking changes ship only in a new dated version; an
// old version stays served for at least 12 months after its successor.
export const CURRENT_API_VERSION = '2026-04-27';

/** Every version this build serves, oldest first. */
export const SUPPORTED_API_VERSIONS: readonly string[] = [CURRENT_API_VERSION];

export const VERSION_HEADER = 'service-version';
