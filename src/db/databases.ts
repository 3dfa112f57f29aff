// Database creation on a server the caller administers (tests clone a
// migrated template; `npm start` and the benches create theirs).
import postgres from 'postgres';

/** Creates the database unless it exists, optionally as a copy of `template`. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!exists) {
      await admin.unsafe(`create database "${name.replace(/"/g, '')}"${template ? ` template "${template.replace(/"/g, '')}"` : ''}`);
    }
  } finally {
    await admin.end();
  }
}
