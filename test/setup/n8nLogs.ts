/*
 * n8n's error reporter writes every error a node throws to the console through n8n's logger
 * (winston), besides the execution that records it. The tests assert the errors where n8n keeps
 * them (the item, the execution, the requests the sandbox received), so the console copy was only
 * noise: 184 blocks in `npm test`, some 9,600 lines in `npm run test:long`. Set N8N_LOG_LEVEL
 * (error, warn, info, debug) to see them again.
 */
process.env.N8N_LOG_LEVEL ??= 'silent';
