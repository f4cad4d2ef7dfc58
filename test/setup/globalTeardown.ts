import { teardown } from './userFolder';

export default teardown;
