// npm run listen -- --forward-to http://localhost:4000/hooks [--events a,b] [--api-key sk_test_...]
// Forwards test-mode webhook deliveries to a local URL (tools/dev/listen.ts).
import { main } from '../tools/dev/listen.js';

process.exit(await main());
