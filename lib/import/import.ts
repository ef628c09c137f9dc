export async function importFile(..._a: unknown[]) {}
