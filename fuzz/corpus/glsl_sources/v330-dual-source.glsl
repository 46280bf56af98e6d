	layout(location = 0, index = 0) out vec4 c0;
layout(location = 0, index = 1) out vec4 c1;
void main() { c0 = vec4(1.0); c1 = vec4(0.5); }
