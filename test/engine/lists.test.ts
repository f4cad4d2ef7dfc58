/**
 * Reading the reporting lists: Get Many's paging and recovery, and the Report resource.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n's engine takes about a second to load. Each spec keeps its hooks inside
 * its own `describe`.
 */
import './paging.spec';
import './recovery.spec';
import './report.spec';
import './report-conversion.spec';
import './reporting.spec';
