/**
 * The long runs, kept out of `npm test` and run by `npm run test:long` (CI runs both): the polling
 * trigger through days of simulated activity and at 20,000 cashouts a day, a burst of 200
 * notifications at once, and hostile values in every parameter of every operation and trigger.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n's engine takes about a second to load. Each spec keeps its hooks inside
 * its own `describe`.
 */
import './hostileValues.spec';
import './trigger/notification/burst.spec';
import './trigger/poll/simulation.spec';
import './trigger/poll/volume.spec';
