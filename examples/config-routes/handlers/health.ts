export async function health() {
  return { status: 'up' };
}
