import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { connectDesk } from "./client/connect-desk";
import { I18nProvider } from "./i18n/i18n";
import "./styles/index.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
const client = connectDesk();
createRoot(root).render(
  <StrictMode>
    <I18nProvider>
      <App client={client} />
    </I18nProvider>
  </StrictMode>,
);
