/**
 * The Notification Trigger: signatures, delivery, and each change handled once.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"): jest loads every module afresh
 * for each test file, and n8n's engine takes about a second to load. Each spec keeps its hooks inside
 * its own `describe`.
 */
import './trigger/notification/delivery.spec';
import './trigger/notification/once.spec';
import './trigger/notification/trigger.spec';
