// Same skeleton as the sign-in page: both are one card-sized form.
export { default } from "../signin/loading.tsx";
