/**
 * Reading the reporting lists: Get Many's paging and recovery, and the Report resource.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n's engine takes about a second to load. Each spec keeps its hooks inside
 * its own `describe`; a spec also runs by itself (`npx jest test/engine/lists/report.spec.ts`).
 */
import './lists/getMany.paging.spec';
import './lists/getMany.recovery.spec';
import './lists/getMany.spec';
import './lists/period.spec';
import './lists/report.conversion.spec';
import './lists/report.formulas.spec';
import './lists/report.spec';
