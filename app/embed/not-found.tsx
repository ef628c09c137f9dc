// A notFound() under /embed: the embed's own 404 card (components/markets/embed-not-found.tsx).
export { EmbedNotFound as default } from "@/components/markets/embed-not-found";
