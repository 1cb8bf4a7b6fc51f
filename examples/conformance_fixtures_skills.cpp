// The skills of the conformance suite's Skills extension scenarios (SEP-2640).
// The scenarios discover what they read: the first listed skill is the one
// whose directory they read, so it has a subdirectory (a child with mime
// type inode/directory) and files beside it; its SKILL.md frontmatter has
// fields besides name and description, which the listing must copy
// verbatim (a nested metadata map, a list, a number, a boolean).

#include "conformance_fixtures_skills.hpp"

#include <string>
#include <utility>
#include <vector>

namespace {

std::vector<mcp::skill_source_file> pdf_processing() {
  return {{"SKILL.md", R"(---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
compatibility: Needs a PDF toolkit on the host
metadata:
  version: "2.1.0"
  author: caduceus
  reviewed: true
  revision: 3
  tags: [pdf, forms]
---

# PDF processing

Use this skill to extract text from a PDF, fill its forms or assemble pages.

- Forms: read [the forms guide](references/FORMS.md).
- Extraction: run `scripts/extract.py`.
- Templates: pick one from `templates/` (regional ones in `templates/regional/`).
)"},
          {"references/FORMS.md", "# Filling PDF forms\n\nList the fields first, then fill them one by one.\n"},
          {"scripts/extract.py", "import sys\n\nprint(open(sys.argv[1], 'rb').read()[:100])\n"},
          {"templates/invoice.md", "# Invoice\n\nNumber: {{number}}\n"},
          {"templates/purchase-order.md", "# Purchase order\n\nItems: {{items}}\n"},
          {"templates/regional/eu-invoice.md", "# EU invoice\n\nVAT: {{vat}}\n"}};
}

std::vector<mcp::skill_source_file> refunds() {
  return {{"SKILL.md", R"(---
name: refunds
description: Process customer refund requests per company policy
---

Check the order, then answer with the template in examples/email.md.
)"},
          {"examples/email.md", "Dear customer,\n\nYour refund of {{amount}} is on its way.\n"}};
}

std::vector<mcp::skill_source_file> git_workflow() {
  return {{"SKILL.md", R"(---
name: git-workflow
description: Follow this team's Git conventions for branching and commits
---

Branch from main as `topic/<name>`; write commit subjects in the imperative.
)"}};
}

}  // namespace

void add_skill_conformance_fixtures(mcp::server& server) {
  server.add_skill(pdf_processing(), mcp::skill_options{});
  mcp::skill_options billing;
  billing.prefix = "acme/billing";
  server.add_skill(refunds(), billing);
  server.add_skill(git_workflow(), mcp::skill_options{});
}
