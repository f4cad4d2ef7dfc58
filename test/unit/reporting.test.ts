/**
 * Unit tests of the reports and of the period reader (nodes/PaymentsService/reporting/).
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n-workflow alone takes about 0.3 s to load. Each spec keeps its hooks
 * inside its own `describe`; a spec also runs by itself (`npx jest test/unit/reporting/csv.spec.ts`).
 */
import './reporting/conversion.spec';
import './reporting/csv.spec';
import './reporting/lists.spec';
import './reporting/periodParameter.spec';
import './reporting/read/channel.spec';
import './reporting/read/pages.spec';
import './reporting/read/period.completedWindows.spec';
import './reporting/read/period.spec';
import './reporting/read/windows.spec';
import './reporting/reconciliation.spec';
import './reporting/summary.spec';
import './reporting/timeZones.spec';
