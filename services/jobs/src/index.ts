export { startSystem, openDatabase, openBus, type RunningSystem } from './system';
