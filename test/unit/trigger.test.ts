/**
 * Unit tests of the two triggers' modules: the polling trigger's plan, detection, events and stored
 * state, and the Notification Trigger's parsing, authenticity, change keys, memory and claim
 * (nodes/PaymentsService/trigger/).
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"); a spec also runs by itself
 * (`npx jest test/unit/trigger/poll/plan.spec.ts`).
 */
import './trigger/notification/authenticity.spec';
import './trigger/notification/changeKeys.spec';
import './trigger/notification/claims.spec';
import './trigger/notification/memory.spec';
import './trigger/notification/parsing.spec';
import './trigger/poll/detection.model.spec';
import './trigger/poll/detection.spec';
import './trigger/poll/events/anyChange.spec';
import './trigger/poll/events/statusChanged.spec';
import './trigger/poll/failure.spec';
import './trigger/poll/load.spec';
import './trigger/poll/memory.spec';
import './trigger/poll/plan.spec';
import './trigger/poll/ranges.spec';
import './trigger/poll/storage.format.spec';
import './trigger/poll/storage.spec';
