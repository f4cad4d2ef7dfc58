module.exports = require('./userFolder').teardown;
