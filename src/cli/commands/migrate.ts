import { withStore } from '../../services/operator.ts';
import { type Command, cliConfig, parseOptions } from '../command.ts';

export const command: Command = {
  usage: 'migrate',
  summary: 'Apply pending database migrations and exit',
  async run(argv) {
    parseOptions(argv, {}, this.usage);
    const config = cliConfig();
    await withStore(config, (store) => store.migrate());
    const where = config.databaseUrl ? `PostgreSQL${config.databaseSchema ? ` (schema ${config.databaseSchema})` : ''}` : `SQLite in ${config.dataDir}`;
    console.log(`Migrations applied: ${where}`);
    return 0;
  },
};
