import { countSchedulerPolls, hasDurablePollScheduler } from './durable';

describe("the durable poll scheduler step's reading of n8n", () => {
	// Lines as n8n 2.41.1 main prints them at debug level (colours as in its log file), and in
	// production's console format.
	const colour = (text: string) => `\u001b[34m${text}\u001b[39m`;
	const log = [
		`20:43:14.730   ${colour('debug')}   ${colour('Poll returned no new data; nothing to hand off')} { "scopes": ["scheduler"], "taskId": "1", "jobId": 1, "workflowId": "KNwb3AUlkOLs6bBU", "nodeId": "3cc1878f", "file": "poll-trigger-task-handler.js" }`,
		`20:44:14.553   ${colour('debug')}   ${colour('Poll returned new data; handed off to a new execution')} { "scopes": ["scheduler"], "taskId": "2", "jobId": 1, "workflowId": "KNwb3AUlkOLs6bBU", "nodeId": "3cc1878f" }`,
		'2026-11-28T20:45:14.633Z | debug | Poll returned no new data; nothing to hand off {"scopes":["scheduler"],"taskId":"3","jobId":1,"workflowId":"KNwb3AUlkOLs6bBU","nodeId":"3cc1878f"}',
		'2026-11-28T20:45:14.700Z | debug | Poll returned no new data; nothing to hand off {"scopes":["scheduler"],"taskId":"4","jobId":2,"workflowId":"other","nodeId":"3cc1878f"}',
		`20:42:45.885   ${colour('debug')}   ${colour('Poll trigger initiated for workflow "Alert"')} { "scopes": ["poll-trigger"], "workflowName": "Alert", "workflowId": "KNwb3AUlkOLs6bBU" }`,
		'20:46:14.000   debug   Poll is backing off; skipping this occurrence { "workflowId": "KNwb3AUlkOLs6bBU" }',
	].join('\n');

	it("counts the task handler's polls of one workflow, in both of n8n's console formats", () => {
		expect(countSchedulerPolls(log, 'KNwb3AUlkOLs6bBU')).toBe(3);
		expect(countSchedulerPolls(log, 'other')).toBe(1);
		expect(countSchedulerPolls(log, 'KNwb3AUlkOLs6bB')).toBe(0);
	});

	it('runs from n8n 2.41 on', () => {
		expect(hasDurablePollScheduler('2.41.1')).toBe(true);
		expect(hasDurablePollScheduler('2.42.0')).toBe(true);
		expect(hasDurablePollScheduler('3.0.0')).toBe(true);
		expect(hasDurablePollScheduler('2.35.3')).toBe(false);
		expect(hasDurablePollScheduler('1.123.81')).toBe(false);
	});
});
