export async function seedDatabase(..._a: unknown[]) {}
