import fs from 'node:fs';
import os from 'node:os';

/** The highest nice value (the lowest priority) Linux allows. */
const LOWEST = 19;

/**
 * Raises the calling thread's nice value by `steps` (a lower CPU priority than the rest
 * of the process). On Linux a thread is a task with its own nice value, named by the id
 * `/proc/thread-self` points at; elsewhere this does nothing and says so (false).
 * Lowering one's own priority needs no privilege.
 */
export function lowerThreadPriority(steps: number): boolean {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    os.setPriority(tid, Math.min(LOWEST, os.getPriority(tid) + steps));
    return true;
  } catch {
    return false;
  }
}
