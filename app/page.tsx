export default function Home() {
  return <main>Markets</main>;
}
