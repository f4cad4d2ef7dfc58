/**
 * The action node's operations on n8n's engine against the sandbox, and money that moves once.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n's engine takes about a second to load. Each spec keeps its hooks inside
 * its own `describe`.
 */
import './cashoutCreate.spec';
import './createConcurrency.spec';
import './cashouts.spec';
import './deposits.spec';
import './money-moves-once.spec';
import './pickers.spec';
import './reference-and-session.spec';
import './refunds.spec';
import './simplify.spec';
import './tickets.spec';
