/**
 * The action node's operations on n8n's engine against the sandbox, and money that moves once.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n's engine takes about a second to load. Each spec keeps its hooks inside
 * its own `describe`; a spec also runs by itself (`npx jest test/engine/cashout/create.spec.ts`).
 */
import './balance/reconcile.spec';
import './bank/getMany.spec';
import './cashout/create.spec';
import './cashout/status.spec';
import './creations/concurrency.spec';
import './creations/money-moves-once.spec';
import './creations/property.spec';
import './credentials.spec';
import './deposit/create.spec';
import './deposit/flagForReview.spec';
import './deposit/getStatus.spec';
import './exchangeRate/get.spec';
import './refund/create.spec';
import './refund/getStatus.spec';
import './session/logOut.spec';
import './lists/getMany.simplify.spec';
import './methods/pickers.spec';
import './ticket/createDraft.spec';
