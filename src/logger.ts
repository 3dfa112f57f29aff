// Structured JSON logs. Authorization and cookie headers are redacted as a
// second line of defence; request logging never includes headers anyway.
import { pino, type Logger, type LevelWithSilent, type DestinationStream } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.secret',
  '*.signingSecret',
  '*.apiKey',
  '*.token',
];

export function createLogger(level: LevelWithSilent, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
