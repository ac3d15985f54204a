// This language's texts, one file per section; loaded as one piece (see ../index.ts).
export default import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' });
