// The fields of an action's parameters, as the server describes them ({key, type, label,
// default, choices}): where a hit landed, with what, whether it was solid... A parameter
// left at its default is shown with it (a "solid" blow is ticked until the player says
// otherwise), so what is sent is what the screen shows.
import { h } from "./util.js";

const given = (param) => param.default !== undefined && param.default !== null;

export function paramField(param) {
  const { key, label } = param;
  if (param.type === "bool") {
    return h("label", { class: "check" },
      h("input", { type: "checkbox", name: key, checked: param.default === true }), " ", label);
  }
  if (param.type === "choice" || (param.choices && param.choices.length)) {
    return h("label", {}, label, h("select", { name: key, "aria-label": label },
      (param.choices || []).map((choice) =>
        h("option", { value: choice.key, selected: choice.key === param.default }, choice.label))));
  }
  if (param.type === "int") {
    return h("label", {}, label,
      h("input", { type: "number", name: key, step: 1, "aria-label": label, value: given(param) ? param.default : "" }));
  }
  return h("label", {}, label,
    h("input", { name: key, autocomplete: "off", maxlength: 200, "aria-label": label, value: given(param) ? param.default : "" }));
}

// What the fields say; an empty text or number is left out (the server's default then).
export function paramValues(form, params) {
  const values = {};
  for (const param of params) {
    const field = form.elements[param.key];
    if (!field) continue;
    if (param.type === "bool") values[param.key] = field.checked;
    else if (field.value === "") continue;
    else values[param.key] = param.type === "int" ? Number(field.value) : field.value;
  }
  return values;
}
