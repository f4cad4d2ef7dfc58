module.exports = require('./userFolder').setup;
