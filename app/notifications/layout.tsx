// Reads and writes through the tRPC client: the layout that provides it.
export { default } from "../_components/interactive-layout.tsx";
