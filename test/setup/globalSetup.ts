import { setup } from './userFolder';

export default setup;
