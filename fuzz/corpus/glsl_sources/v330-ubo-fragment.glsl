	layout(std140) uniform Lights { vec4 color[4]; mat4 m; } lights;
uniform int n;
out vec4 c;
void main() { vec4 s = vec4(0.0); for (int i = 0; i < n; ++i) s += lights.color[i]; c = s; }
