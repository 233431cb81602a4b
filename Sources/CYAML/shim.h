// The system libyaml (libyaml-dev on Linux): the frontmatter parser of SophonPrompt (docs/prompts.md).
#include <yaml.h>
