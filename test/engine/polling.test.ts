/**
 * The polling trigger on n8n's engine: its events, edges, properties and a simulation of days.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n's engine takes about a second to load. Each spec keeps its hooks inside
 * its own `describe`.
 */
import './trigger/poll/trigger.spec';
import './trigger/poll/edges.spec';
import './trigger/poll/property.spec';
import './trigger/poll/memory.spec';
