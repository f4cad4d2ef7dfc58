/**
 * The sandbox's own tests: its data, routes, faults and notifications, over HTTP.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"); a spec also runs by itself
 * (`npx jest test/sandbox/faults.spec.ts`).
 */
import './auth.spec';
import './cashoutCreate.spec';
import './cashouts.spec';
import './data.spec';
import './deposits.spec';
import './faults.spec';
import './notifications.spec';
import './reference.spec';
import './refunds.spec';
import './reporting.spec';
import './tickets.spec';
