	out vec4 c;
void main() { c = undeclared; }
