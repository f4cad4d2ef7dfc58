/**
 * What ships: the built package in n8n, and the example workflows.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n's engine takes about a second to load. Each spec keeps its hooks inside
 * its own `describe`.
 */
import './package.spec';
import './workflows.spec';
