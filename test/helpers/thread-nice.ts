/**
 * The nice value in a `/proc/<task>/stat` line: field 19, counted after the parenthesised
 * command name (which may itself hold spaces).
 */
export const niceInStat = (stat: string): number => Number(stat.split(') ')[1]!.split(' ')[16]);
