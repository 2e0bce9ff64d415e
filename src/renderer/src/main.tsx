import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { connectDesk } from "./client/desk-client";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
const client = connectDesk();
createRoot(root).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);
